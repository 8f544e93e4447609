app = "main"
