--[[
Herald companion script for Tabletop Simulator (Global script).

Paste this into the mod's Global script (Scripting > Global), or merge it into an existing
Global script: if the mod already defines onExternalMessage, onObjectDrop, onObjectRotate or
onObjectRandomize, call the herald_* functions below from the mod's own handlers instead.

From Herald (External Editor API "custom message", messageID 2):
  {herald = 1, kind = "prompt"|"violation"|"score"|"info", text = "...", to = "Blue" (optional)}
  is shown on screen to everyone (broadcastToAll) or to one colour (broadcastToColor).

To Herald (sendExternalMessage, arrives as messageID 4):
  {herald = 1, event = "drop",  guid = "...", player = "Blue"}
  {herald = 1, event = "flip",  guid = "...", player = "Blue", face_down = true|false}
  {herald = 1, event = "roll",  guid = "...", player = "Blue", value = <face-up value>}
]]

HERALD_PROTOCOL = 1

HERALD_TINTS = {
  prompt = {0.85, 0.85, 1.0},
  violation = {1.0, 0.35, 0.3},
  score = {1.0, 0.85, 0.3},
  info = {1.0, 1.0, 1.0},
}

function herald_show(data)
  if type(data) ~= "table" or data.herald ~= HERALD_PROTOCOL then return false end
  local text = tostring(data.text or "")
  if text == "" then return false end
  local tint = HERALD_TINTS[data.kind] or HERALD_TINTS.info
  if type(data.to) == "string" and data.to ~= "" then
    broadcastToColor(text, data.to, tint)
  else
    broadcastToAll(text, tint)
  end
  return true
end

function herald_report(event, object, player_color, extra)
  if object == nil then return end
  local message = {
    herald = HERALD_PROTOCOL,
    event = event,
    guid = object.getGUID(),
    player = player_color,
  }
  if extra ~= nil then
    for key, value in pairs(extra) do message[key] = value end
  end
  sendExternalMessage(message)
end

function herald_on_rotate(object, spin, flip, player_color, old_spin, old_flip)
  if flip ~= old_flip then
    -- flip is the target flip angle in [0, 360); around 180 the object lies face down.
    local face_down = flip > 90 and flip < 270
    herald_report("flip", object, player_color, {face_down = face_down})
  end
end

function herald_on_randomize(object, player_color)
  local kind = object.type
  if kind ~= "Dice" and kind ~= "Coin" then return end
  -- The value is known only once the die has come to rest.
  Wait.condition(
    function()
      herald_report("roll", object, player_color, {value = object.getRotationValue()})
    end,
    function() return object == nil or object.resting end,
    10
  )
end

function onExternalMessage(data)
  herald_show(data)
end

function onObjectDrop(player_color, object)
  herald_report("drop", object, player_color)
end

function onObjectRotate(object, spin, flip, player_color, old_spin, old_flip)
  herald_on_rotate(object, spin, flip, player_color, old_spin, old_flip)
end

function onObjectRandomize(object, player_color)
  herald_on_randomize(object, player_color)
end
