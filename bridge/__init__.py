"""The running referee: CLI, sessions, event store, devices, web and Tabletop Simulator."""
