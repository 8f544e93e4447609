#!/bin/bash
# Refuse any command that holds rm -rf.
input=$(cat)
case "$input" in
  *'rm -rf'*) echo "rm -rf is not allowed here" >&2; exit 2;;
esac
