raise RuntimeError("deliberate failure: the runner must turn this into a non-zero exit")
