"""The sandbox bash commands and hooks run in: bubblewrap, seccomp, mounts, git disarming.

`policy` chooses how a command is confined (the modes, the limits, `confinement` for one
command); `bwrap` finds bubblewrap and checks it works; `mounts` says what of the filesystem
a command sees, with `protected` naming the entries whose content later runs outside any
sandbox; `seccomp` refuses Unix sockets; `environment` leaves secrets out; `gitdefuse`
disarms what a command planted in a git directory it made (with `gitindex` and
`gitdefuse_keys`), and `created` finds what a command made among the protected entries;
`limits` finds the limits a command ran into. It stands below the tools:
the `bash` tool and the hooks both run commands in it.
"""
