#!/bin/sh
git log --merges --oneline
