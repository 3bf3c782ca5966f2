// Runs a Python script on real MicroPython (the WebAssembly port, from npm) with the board
// firmware importable as the `firmware` package, the way a board's flash holds it.
//
//   node tests/firmware/mpy/run.mjs FIRMWARE_DIR SCRIPT [MODULE ...]
//
// MODULE names the firmware files to copy (all *.py of FIRMWARE_DIR when none are given).
// The script's print() goes to standard output; an uncaught Python exception is printed to
// standard error and the exit status is 1.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const [firmwareDir, script, ...modules] = process.argv.slice(2);
if (!firmwareDir || !script) {
  process.stderr.write("usage: run.mjs FIRMWARE_DIR SCRIPT [MODULE ...]\n");
  process.exit(2);
}

let out = "";
const mp = await loadMicroPython({
  stdout: (line) => { out += line + "\n"; },
  stderr: (line) => { process.stderr.write(line + "\n"); },
});

mp.FS.mkdirTree("/lib/firmware");
const names = modules.length ? modules.map((m) => m + ".py")
  : readdirSync(firmwareDir).filter((f) => f.endsWith(".py"));
for (const name of names) {
  mp.FS.writeFile("/lib/firmware/" + name, readFileSync(join(firmwareDir, name)));
}

let status = 0;
try {
  mp.runPython(readFileSync(script, "utf8"));
} catch (err) {
  process.stderr.write(String(err.message || err) + "\n");
  status = 1;
}
process.stdout.write(out);
process.exit(status);
