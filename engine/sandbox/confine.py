"""Kernel-enforced containment of a forked child: no_new_privs, a Landlock domain and a seccomp-bpf filter.

Installed by each child before any untrusted byte runs (in the spare, before it waits for its request), and
inherited by every thread the program starts. None of it can be undone from inside the process: no_new_privs
is one-way, Landlock domains and seccomp filters can only be tightened. The audit hook (guard.py) stays as a
friendly first layer that explains refusals; what holds against a program that disables the hook is here.

* **seccomp-bpf** (x86_64 and aarch64): a filter assembled here, so nothing beyond the kernel is needed. It
  refuses with EPERM: creating sockets of any family, ptrace and cross-process memory access, mounts and
  namespaces, bpf, keyrings, perf, kexec/reboot/modules, io_uring (its operations bypass seccomp), new
  processes (clone only with CLONE_THREAD: threads are fine, processes are not), exec, changing credentials,
  device nodes, and signals to anything but the child itself. Other architectures or ABIs (32-bit, x32
  system calls on x86_64) are killed.
* **Landlock** (kernel 5.13+): the child may read the Python installation and system libraries, read and
  write its private directory and /dev/null, read /dev/zero and /dev/urandom; nothing else on the
  filesystem (no home, config, run or domain directory, no /proc, no /sys). From ABI 4 no TCP bind/connect;
  from ABI 6 no signals and no abstract unix sockets outside the child's own domain. Works without namespaces
  and for root.

Kept import-light (ctypes, os, struct): the fork server imports it once, every child uses it.
"""

from __future__ import annotations

import ctypes
import os
import platform
import struct
from collections.abc import Iterable

PR_SET_DUMPABLE = 4
PR_SET_SECCOMP = 22
PR_SET_NO_NEW_PRIVS = 38
PR_GET_NO_NEW_PRIVS = 39
SECCOMP_MODE_FILTER = 2

# System library directories the interpreter may need for lazily loaded extension modules.
SYSTEM_READ_PATHS = ("/usr", "/lib", "/lib64", "/lib32", "/libx32", "/etc/ld.so.cache", "/etc/localtime")
DEVICE_READ_FILES = ("/dev/zero", "/dev/urandom", "/dev/random")
DEVICE_WRITE_FILES = ("/dev/null",)


class ConfinementError(Exception):
    """A layer that the machine supports could not be installed (the child must not run the program)."""


_libc = ctypes.CDLL(None, use_errno=True)
_syscall = _libc.syscall
_syscall.restype = ctypes.c_long
_libc.prctl.restype = ctypes.c_int


def _prctl(option: int, arg2: int, arg3: int = 0, arg4: int = 0, arg5: int = 0) -> int:
    args = (ctypes.c_ulong(arg2), ctypes.c_ulong(arg3), ctypes.c_ulong(arg4), ctypes.c_ulong(arg5))
    return int(_libc.prctl(ctypes.c_int(option), *args))


def _fail(what: str) -> ConfinementError:
    err = ctypes.get_errno()
    return ConfinementError(f"{what}: {os.strerror(err)}")


def set_no_new_privs() -> None:
    if _prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise _fail("PR_SET_NO_NEW_PRIVS")


def no_new_privs() -> bool:
    return _prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1


def make_undumpable() -> bool:
    """PR_SET_DUMPABLE 0: processes of the same user can no longer ptrace this one or open its /proc/<pid>/mem,
    environ, fd, ... (used by the fork server; its children inherit it)."""
    return _prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0


# ---------------------------------------------------------------- seccomp

_ARCH = {  # machine -> (AUDIT_ARCH_*, syscall table)
    "x86_64": 0xC000003E,
    "aarch64": 0xC00000B7,
}

# Syscall numbers (from the kernel's uapi headers: asm/unistd_64.h for x86_64, asm-generic/unistd.h for
# aarch64). Only the ones the filter names; None where the architecture has no such call.
_NUMBERS: dict[str, tuple[int | None, int | None]] = {
    "socket": (41, 198), "socketpair": (53, 199), "ptrace": (101, 117), "process_vm_readv": (310, 270),
    "process_vm_writev": (311, 271), "process_madvise": (440, 440), "kcmp": (312, 272), "mount": (165, 40),
    "umount2": (166, 39), "pivot_root": (155, 41), "chroot": (161, 51), "unshare": (272, 97), "setns": (308, 268),
    "mount_setattr": (442, 442), "move_mount": (429, 429), "open_tree": (428, 428), "fsopen": (430, 430),
    "fsconfig": (431, 431), "fsmount": (432, 432), "fspick": (433, 433), "bpf": (321, 280), "keyctl": (250, 219),
    "add_key": (248, 217), "request_key": (249, 218), "perf_event_open": (298, 241), "kexec_load": (246, 104),
    "kexec_file_load": (320, 294), "reboot": (169, 142), "init_module": (175, 105), "finit_module": (313, 273),
    "delete_module": (176, 106), "swapon": (167, 224), "swapoff": (168, 225), "acct": (163, 89),
    "quotactl": (179, 60), "quotactl_fd": (443, 443), "syslog": (103, 116), "settimeofday": (164, 170),
    "clock_settime": (227, 112), "clock_adjtime": (305, 266), "adjtimex": (159, 171), "sethostname": (170, 161),
    "setdomainname": (171, 162), "iopl": (172, None), "ioperm": (173, None), "open_by_handle_at": (304, 265),
    "name_to_handle_at": (303, 264), "userfaultfd": (323, 282), "fanotify_init": (300, 262),
    "lookup_dcookie": (212, 18), "uselib": (134, None), "personality": (135, 92), "vhangup": (153, 58),
    "pidfd_open": (434, 434), "pidfd_getfd": (438, 438), "pidfd_send_signal": (424, 424), "setuid": (105, 146),
    "setgid": (106, 144), "setreuid": (113, 145), "setregid": (114, 143), "setresuid": (117, 147),
    "setresgid": (119, 149), "setgroups": (116, 159), "setfsuid": (122, 151), "setfsgid": (123, 152),
    "capset": (126, 91), "mknod": (133, None), "mknodat": (259, 33), "migrate_pages": (256, 238),
    "move_pages": (279, 239), "io_uring_setup": (425, 425), "io_uring_enter": (426, 426),
    "io_uring_register": (427, 427), "fork": (57, None), "vfork": (58, None), "execve": (59, 221),
    "execveat": (322, 281), "tkill": (200, 130), "nfsservctl": (180, 42),
    # Other processes' scheduling and robust-futex lists (root could renice or pin the server and others):
    "setpriority": (141, 140), "ioprio_set": (251, 30), "sched_setparam": (142, 118),
    "sched_setscheduler": (144, 119), "sched_setattr": (314, 274), "get_robust_list": (274, 100),
    "process_mrelease": (448, 448),
    # Checked with their arguments:
    "clone": (56, 220), "clone3": (435, 435), "kill": (62, 129), "tgkill": (234, 131),
    "rt_sigqueueinfo": (129, 138), "rt_tgsigqueueinfo": (297, 240), "prlimit64": (302, 261),
    "sched_setaffinity": (203, 122),
}  # fmt: skip

DENIED_SYSCALLS = tuple(
    name
    for name in _NUMBERS
    if name
    not in {"clone", "clone3", "kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "prlimit64", "sched_setaffinity"}
)

_RET_KILL_PROCESS = 0x80000000
_RET_ERRNO = 0x00050000
_RET_ALLOW = 0x7FFF0000
_EPERM = 1
_ENOSYS = 38
_X32_BIT = 0x40000000
CLONE_THREAD = 0x00010000
_CLONE_NAMESPACES = 0x7E020000  # NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET

# Classic BPF opcodes.
_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_JSET_K = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_AND_K = 0x54  # BPF_ALU | BPF_AND | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K

# Offsets in struct seccomp_data: nr, arch, instruction_pointer, args[6] (the low 32 bits of an argument
# come first on these little-endian machines; the kernel uses only those for int arguments such as pids).
_OFF_NR = 0
_OFF_ARCH = 4


def _arg_low(index: int) -> int:
    return 16 + 8 * index


def seccomp_arch() -> str | None:
    """The machine name if the filter knows its system call table, else None."""
    machine = platform.machine()
    return machine if machine in _ARCH else None


def _ins(code: int, k: int = 0, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k & 0xFFFFFFFF)


def _one_of(values: Iterable[int]) -> list[bytes]:
    """With an argument loaded into A: allow if it equals one of ``values``, else EPERM."""
    values = list(values)
    out = [_ins(_JEQ_K, v, jt=len(values) - i, jf=0) for i, v in enumerate(values)]
    return [*out, _ins(_RET_K, _RET_ERRNO | _EPERM), _ins(_RET_K, _RET_ALLOW)]


def _guarded(number: int, body: list[bytes]) -> list[bytes]:
    """If the syscall number is ``number`` run ``body`` (which ends in returns), else go on after it."""
    return [_ins(_JEQ_K, number, jt=0, jf=len(body)), *body]


def _number(table: dict[str, int | None], name: str) -> int:
    nr = table[name]
    if nr is None:  # every checked call exists on every supported architecture
        raise ConfinementError(f"no system call {name} on this architecture")
    return nr


def build_filter(pid: int, machine: str) -> bytes:
    """The BPF program for a child with pid ``pid`` (its own process group and session)."""
    column = 0 if machine == "x86_64" else 1
    number = {name: pair[column] for name, pair in _NUMBERS.items()}
    deny = _ins(_RET_K, _RET_ERRNO | _EPERM)
    program = [
        _ins(_LD_W_ABS, _OFF_ARCH),
        _ins(_JEQ_K, _ARCH[machine], jt=1, jf=0),
        _ins(_RET_K, _RET_KILL_PROCESS),
        _ins(_LD_W_ABS, _OFF_NR),
    ]
    if machine == "x86_64":
        program += [_ins(_JGE_K, _X32_BIT, jt=0, jf=1), _ins(_RET_K, _RET_KILL_PROCESS)]
    for name in DENIED_SYSCALLS:
        nr = number[name]
        if nr is not None:
            program += [_ins(_JEQ_K, nr, jt=0, jf=1), deny]
    # clone3 passes its flags in memory, which a filter cannot read: ENOSYS makes libc fall back to clone.
    program += [_ins(_JEQ_K, _number(number, "clone3"), jt=0, jf=1), _ins(_RET_K, _RET_ERRNO | _ENOSYS)]
    clone_body = [
        _ins(_LD_W_ABS, _arg_low(0)),
        _ins(_JSET_K, CLONE_THREAD, jt=1, jf=0),  # a thread ...
        deny,
        _ins(_AND_K, _CLONE_NAMESPACES),  # ... without new namespaces
        _ins(_JEQ_K, 0, jt=1, jf=0),
        deny,
        _ins(_RET_K, _RET_ALLOW),
    ]
    program += _guarded(_number(number, "clone"), clone_body)
    own = pid & 0xFFFFFFFF
    group = (-pid) & 0xFFFFFFFF
    program += _guarded(_number(number, "kill"), [_ins(_LD_W_ABS, _arg_low(0)), *_one_of((0, own, group))])
    for name in ("tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"):
        program += _guarded(_number(number, name), [_ins(_LD_W_ABS, _arg_low(0)), *_one_of((own,))])
    for name in ("prlimit64", "sched_setaffinity"):  # only on itself
        program += _guarded(_number(number, name), [_ins(_LD_W_ABS, _arg_low(0)), *_one_of((0, own))])
    program.append(_ins(_RET_K, _RET_ALLOW))
    return b"".join(program)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install_seccomp(pid: int, machine: str) -> None:
    """Load the filter into the calling thread (threads it starts later inherit it). Needs no_new_privs."""
    code = build_filter(pid, machine)
    buffer = ctypes.create_string_buffer(code, len(code))
    prog = _SockFprog(len(code) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    mode = ctypes.c_ulong(SECCOMP_MODE_FILTER)
    if _libc.prctl(ctypes.c_int(PR_SET_SECCOMP), mode, ctypes.byref(prog), ctypes.c_ulong(0), ctypes.c_ulong(0)) != 0:
        raise _fail("seccomp filter")


# ---------------------------------------------------------------- Landlock

_SYS_CREATE_RULESET = 444  # the same number on every architecture
_SYS_ADD_RULE = 445
_SYS_RESTRICT_SELF = 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1

FS_EXECUTE = 1 << 0
FS_WRITE_FILE = 1 << 1
FS_READ_FILE = 1 << 2
FS_READ_DIR = 1 << 3
FS_MAKE_CHAR = 1 << 6
FS_MAKE_SOCK = 1 << 9
FS_MAKE_BLOCK = 1 << 11
FS_REFER = 1 << 13  # ABI 2
FS_TRUNCATE = 1 << 14  # ABI 3
FS_IOCTL_DEV = 1 << 15  # ABI 5
_FS_V1 = (1 << 13) - 1
_FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV
NET_ALL = 0b11  # ABI 4: bind and connect TCP
SCOPE_ALL = 0b11  # ABI 6: abstract unix sockets and signals outside the domain


def landlock_abi() -> int:
    """The Landlock ABI version of the running kernel, 0 when Landlock is unavailable or disabled."""
    result = _syscall(ctypes.c_long(_SYS_CREATE_RULESET), None, ctypes.c_long(0), ctypes.c_long(_CREATE_RULESET_VERSION))
    return int(result) if result > 0 else 0


def handled_fs(abi: int) -> int:
    handled = _FS_V1
    if abi >= 2:
        handled |= FS_REFER
    if abi >= 3:
        handled |= FS_TRUNCATE
    if abi >= 5:
        handled |= FS_IOCTL_DEV
    return handled


def install_landlock(abi: int, private_dir: str, read_paths: Iterable[str]) -> None:
    """Restrict the calling thread to reading ``read_paths`` and everything in ``private_dir``."""
    fs = handled_fs(abi)
    net = NET_ALL if abi >= 4 else 0
    scoped = SCOPE_ALL if abi >= 6 else 0
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    attr = ctypes.create_string_buffer(struct.pack("<QQQ", fs, net, scoped)[:size], size)
    ruleset = _syscall(ctypes.c_long(_SYS_CREATE_RULESET), attr, ctypes.c_long(size), ctypes.c_long(0))
    if ruleset < 0:
        raise _fail("landlock_create_ruleset")
    try:
        read = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR
        private = fs & ~(FS_MAKE_CHAR | FS_MAKE_BLOCK | FS_MAKE_SOCK | FS_IOCTL_DEV)
        rules: list[tuple[str, int, bool]] = [(private_dir, private, True)]
        rules += [(path, read, False) for path in read_paths]
        rules += [(path, FS_READ_FILE, False) for path in DEVICE_READ_FILES]
        rules += [(path, FS_READ_FILE | FS_WRITE_FILE | FS_TRUNCATE, False) for path in DEVICE_WRITE_FILES]
        for path, access, required in rules:
            _add_path_rule(int(ruleset), path, access & fs, required)
        if _syscall(ctypes.c_long(_SYS_RESTRICT_SELF), ctypes.c_long(ruleset), ctypes.c_long(0)) != 0:
            raise _fail("landlock_restrict_self")
    finally:
        os.close(int(ruleset))


def _add_path_rule(ruleset: int, path: str, access: int, required: bool) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        if required:
            raise
        return
    try:
        if not os.path.isdir(path):
            access &= _FILE_RIGHTS
        attr = ctypes.create_string_buffer(struct.pack("<Qi", access, fd), 12)
        if _syscall(ctypes.c_long(_SYS_ADD_RULE), ctypes.c_long(ruleset), ctypes.c_long(_RULE_PATH_BENEATH), attr, ctypes.c_long(0)) != 0:
            raise _fail(f"landlock_add_rule {path}")
    finally:
        os.close(fd)


# ------------------------------------------------------------------ the child


def available_layers() -> dict[str, object]:
    """What this machine offers (probed once in the fork server; the children apply exactly this)."""
    return {"seccomp": seccomp_arch(), "landlock": landlock_abi()}


def confine_child(pid: int, private_dir: str, read_roots: Iterable[str], layers: dict[str, object]) -> None:
    """Apply every available layer to the calling (single-threaded) child; raise if one fails."""
    set_no_new_privs()
    abi = layers.get("landlock")
    if isinstance(abi, int) and abi > 0:
        paths = list(dict.fromkeys([*read_roots, *SYSTEM_READ_PATHS]))
        install_landlock(abi, private_dir, paths)
    machine = layers.get("seccomp")
    if isinstance(machine, str):
        install_seccomp(pid, machine)
