# --lanes and --hide see the labels told apart (before the lanes are
# picked, so picking one does not change its label).
from lib import *
m = model()
expect_sane()
expect(labels() == ["Renderer / ThreadPoolForegroundWorker (tid 12)", "Worker (pid 60)"],
       "labels %r" % labels())
done()
