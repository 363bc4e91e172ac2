"""Pure clock maths: clock settings and their text form, time left and flag fall, and advice
on settings that make a match fit a round's time slot. No Django here."""
