from greet import greet

print(greet("world"))
