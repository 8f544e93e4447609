"""The offline demo: a sample workspace and the script the scripted model follows in it."""
