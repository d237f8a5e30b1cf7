"""Pure parts of the sandbox: traceback cleaning, record checks, framing, messages, program files."""

from __future__ import annotations

import json
import os

import pytest

from genplan.engine.feedback.programs import exception_message, run_feedback, timeout_message, wrong_type_message
from genplan.engine.sandbox import Limits, Program, ProgramError, ProgramOutcome, protocol
from genplan.engine.sandbox.outcome import (
    CATEGORY_EXCEPTION,
    CATEGORY_TIMEOUT,
    CATEGORY_WRONG_TYPE,
    run_category,
)
from genplan.engine.sandbox.server import parse_child_result, sanitize_record
from genplan.engine.sandbox.tracebacks import bound, clean_fault_dump, omit_paths, program_traceback


def test_omit_paths_replaces_every_file_name_and_private_dirs() -> None:
    text = 'Traceback (most recent call last):\n  File "/home/u/x.py", line 3, in f\n  File "<program>", line 1\n'
    cleaned = omit_paths(text + "FileNotFoundError: /tmp/run-1/a.txt", ("/tmp/run-1",))
    assert "/home/u" not in cleaned and "<program>" not in cleaned
    assert cleaned.count('File "<file-name-omitted>"') == 2
    assert cleaned.endswith("FileNotFoundError: ./a.txt")


def test_bound_keeps_start_and_end() -> None:
    text = "\n".join(f"line {i}" for i in range(10_000))
    short = bound(text, 2000)
    assert len(short) < 2100
    assert short.startswith("line 0") and short.endswith("line 9999")
    assert "lines omitted" in short


def test_program_traceback_drops_frames_outside_the_program() -> None:
    source = "def generate_solution(o, i, g):\n    return {}['missing']\n"
    namespace: dict = {}
    exec(compile(source, "<program>", "exec"), namespace)
    try:
        namespace["generate_solution"](set(), set(), set())
    except KeyError as exc:
        text = program_traceback(exc, "<program>")
    assert text.splitlines()[0] == "Traceback (most recent call last):"
    assert 'File "<file-name-omitted>", line 2, in generate_solution' in text
    assert "test_sandbox_units" not in text  # this test's own frame is the "harness" here
    assert text.rstrip().endswith("KeyError: 'missing'")


def test_fault_dump_is_cleaned_and_repeats_collapsed() -> None:
    dump = (
        "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f12 (most recent call first):\n"
        + '  File "/x/prog.py", line 6 in __init__\n' * 50
        + "\nExtension modules: foo, bar\n"
    )
    cleaned = clean_fault_dump(dump)
    assert "0x00007f12" not in cleaned and "Extension modules" not in cleaned and "/x/prog.py" not in cleaned
    assert "[Previous line repeated 47 more times]" in cleaned


def test_sanitize_record_accepts_only_well_typed_records() -> None:
    assert sanitize_record({"kind": "plan", "plan": ["(a)", "(b)"], "runtime": 0.5})["plan"] == ["(a)", "(b)"]
    assert sanitize_record({"kind": "plan", "plan": ["(a)", 3]}) is None
    assert sanitize_record({"kind": "valid"}) is None  # not a kind the child may claim
    assert sanitize_record(["plan"]) is None
    record = sanitize_record({"kind": "exception", "traceback": "x" * 100_000, "runtime": -1})
    assert len(record["traceback"]) == 30_000 and "runtime" not in record


def test_parse_child_result_recognises_fatal_crash_dumps() -> None:
    record, fault = parse_child_result(b"Fatal Python error: Segmentation fault\n\nStack:\n  File \"/a\", line 1 in f\n")
    assert record is None and fault is not None and "/a" not in fault
    record, fault = parse_child_result(json.dumps({"kind": "wrong-type", "returned": "None"}).encode())
    assert record == {"kind": "wrong-type", "returned": "None"} and fault is None
    assert parse_child_result(b"garbage") == (None, None)


def test_frames_roundtrip_through_a_pipe_and_reject_garbage() -> None:
    read_fd, write_fd = os.pipe()
    try:
        protocol.write_frame(write_fd, {"op": "run", "objects": ["a", ["b", "t"]]})
        assert protocol.read_frame(read_fd) == {"op": "run", "objects": ["a", ["b", "t"]]}
    finally:
        os.close(read_fd)
        os.close(write_fd)
    buffer = protocol.FrameBuffer()
    frame = protocol.encode({"x": 1})
    assert buffer.feed(frame[:3]) == [] and buffer.feed(frame[3:]) == [{"x": 1}]
    with pytest.raises(protocol.ProtocolError):
        buffer.feed(b"\x00\x00\x00\x02[]")


def test_table13_messages_for_types_1_to_3() -> None:
    assert timeout_message(45, None) == (
        "The code was interrupted because it did not terminate within the time limit (45 seconds). "
        "This is likely caused by an infinite loop. Please check the loops again."
    )
    tb = 'Traceback (most recent call last):\n  File "<file-name-omitted>", line 2, in f\nKeyError: 1'
    assert exception_message(tb) == "The code raised the following exception:\n" + tb
    assert wrong_type_message("None", "generate_solution") == (
        "The code returned None which is not a list of actions. Please make sure that your code returns a "
        "list of actions, i.e. of type List[str]."
    )


def test_silver_timeout_message_ends_with_the_interrupt() -> None:
    tb = 'Traceback (most recent call last):\n  File "<file-name-omitted>", line 3, in get_plan\nKeyboardInterrupt'
    text = timeout_message(30, tb, style="silver")
    assert text.startswith("The code raised the following exception:\nTraceback")
    assert text.endswith("KeyboardInterrupt\nThe code was interrupted because it timed out (possible infinite loop).")


def test_outcome_categories_follow_the_error_table() -> None:
    assert run_category("exception") == CATEGORY_EXCEPTION
    assert run_category("crash") == CATEGORY_EXCEPTION
    assert run_category("timeout") == CATEGORY_TIMEOUT
    assert run_category("wrong-type") == CATEGORY_WRONG_TYPE
    assert run_category("plan") is None
    outcome = ProgramOutcome(kind="timeout", time_limit=2.5)
    assert "(2.5 seconds)" in run_feedback(outcome, "stein")
    assert ProgramOutcome.from_dict(outcome.to_dict()) == outcome


def test_limits_are_checked() -> None:
    with pytest.raises(ValueError):
        Limits(time_limit=0)
    with pytest.raises(ValueError):
        Limits(memory_bytes=1024)
    assert Limits(time_limit=45, grace_seconds=1).cpu_seconds == 47
    assert Limits.from_dict({**Limits(time_limit=3).to_dict(), "unknown": 1}) == Limits(time_limit=3)


def test_program_files_give_one_line_errors(tmp_path) -> None:
    with pytest.raises(ProgramError, match="no such file"):
        Program.from_file(tmp_path / "missing.py")
    binary = tmp_path / "prog.py"
    binary.write_bytes(b"\x7fELF\x00\x01")
    with pytest.raises(ProgramError, match="not a Python program"):
        Program.from_file(binary)
    text = tmp_path / "notes.py"
    text.write_text("this is not python at all\n")
    program = Program.from_file(text)
    assert program.syntax_problem() is not None and "line 1" in program.syntax_problem()
    good = tmp_path / "good.py"
    good.write_text("def get_plan(objects, init, goal):\n    return []\n")
    assert Program.from_file(good).syntax_problem() is None
    assert Program.from_file(good).defines_function()


def test_the_audit_hook_remembers_verdicts_by_name_but_still_checks_every_path(tmp_path) -> None:
    from genplan.engine.sandbox import guard

    private = tmp_path / "private"
    private.mkdir()
    hook = guard.make_hook(guard.Policy(str(private), guard.python_installation(), 10))
    (remembered,) = (cell.cell_contents for cell in hook.__closure__ if isinstance(cell.cell_contents, dict))
    for _ in range(2):  # the second time from what the hook remembers
        hook("builtins.id", (object(),))
        for event, args in (("socket.connect", (None, ("127.0.0.1", 80))), ("os.system", (b"ls",)),
                            ("gc.get_objects", (0,)), ("ctypes.dlopen", ("libc.so.6",))):
            with pytest.raises(PermissionError, match="does not allow"):
                hook(event, args)
        # events with paths are decided by their arguments every time
        hook("open", (str(private / "mine.txt"), "w", os.O_WRONLY | os.O_CREAT))
        with pytest.raises(PermissionError, match="writing files outside"):
            hook("open", (str(tmp_path / "outside.txt"), "w", os.O_WRONLY | os.O_CREAT))
        with pytest.raises(PermissionError, match="changing files outside"):
            hook("os.remove", (str(tmp_path / "outside.txt"), -1))
        hook("os.remove", (str(private / "mine.txt"), -1))
    assert remembered == {"builtins.id": None, "socket.connect": "network access", "os.system": "starting processes",
                          "gc.get_objects": "walking the interpreter's objects", "ctypes.dlopen": "loading native code"}
    for number in range(5000):  # a program raising events of its own cannot grow the memory without bound
        hook(f"made.up.{number}", ())
    assert len(remembered) == 4096
