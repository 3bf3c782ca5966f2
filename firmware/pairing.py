"""Entering a pairing code with a seat box's three buttons (a pure state machine).

While a device is unpaired, Herald's table display and host page show a code per seat (and one
for the table) of :data:`CODE_LENGTH` digits 1-3: 1 is confirm, 2 pass, 3 undo. Each press adds
its digit; a hold of any button starts over. The complete code goes to Herald, which pairs the
device to the seat the code belongs to.
"""

CODE_LENGTH = 12
DIGITS = {"confirm": "1", "pass": "2", "undo": "3"}
BUTTON_OF = {"1": "confirm", "2": "pass", "3": "undo"}


class CodeEntry:
    """Collects digits: ``press(button)`` returns the whole code once it is complete."""

    def __init__(self, length=CODE_LENGTH):
        self.length = length
        self.digits = ""

    def press(self, button):
        digit = DIGITS.get(button)
        if digit is None:
            return None
        self.digits += digit
        if len(self.digits) < self.length:
            return None
        code, self.digits = self.digits, ""
        return code

    def clear(self):
        self.digits = ""


def buttons_for(code):
    """The presses that enter ``code`` (what a person does reading it off the display)."""
    out = []
    for digit in code:
        button = BUTTON_OF.get(digit)
        if button is None:
            return None
        out.append(button)
    return out
