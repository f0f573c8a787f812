# Without --flows no arrows.
from lib import *
expect(model()["arrows"] == [], "no arrows")
done()
