def triple(x):
    return x * 2
