# ts and dur given as strings of numbers ("100", "50.5", "1.2e2", escaped
# digits, "-0.5") are read as those numbers, with one warning that counts
# them; tts and tdur are not drawn, so not read (a string there is fine).
from lib import *
m = model()
expect_sane()
expect_window(-0.5, 210)
expect_span("strings", 100.5, 151)
expect_span("numbers", 200.5, 210.5)
expect_span("pair", 120.5, 130.5)
expect_stderr(r"5 times given as a string of a number")
expect(len(stderr().strip().splitlines()) == 1, "one warning: %r" % stderr())
done()
