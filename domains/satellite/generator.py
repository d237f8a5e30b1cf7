"""Satellite task generator (in the manner of the IPC 2002 generator).

`satellites` satellites, each with 1..`instruments` instruments (numbered across all satellites). `modes`
observation modes; every instrument supports 1..3 random modes and every mode is supported by at least one
instrument. Directions: first `stations` calibration directions (named GroundStation<k> or Star<k>), then
`targets` observation directions (star<k>, planet<k> or phenomenon<k>). Each instrument's calibration target is
a random station. Every satellite has power and points at a random direction. The goal asks for
`observations` distinct images (random target, random mode) and for `pointing_goals` random satellites to point
at random directions at the end.
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import chunk_names, eval_specs, problem_text, ramp, run_cli

PARAMETERS: dict[str, tuple[int, str]] = {
    "satellites": (2, "number of satellites (>= 1)"),
    "instruments": (2, "maximum number of instruments per satellite (>= 1)"),
    "modes": (3, "number of observation modes (>= 1)"),
    "stations": (2, "number of calibration directions (>= 1)"),
    "targets": (4, "number of observation directions (>= 1)"),
    "observations": (4, "number of images in the goal (1 .. targets * modes)"),
    "pointing_goals": (1, "number of satellites with a final pointing goal (0 .. satellites)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (51, {"satellites": 1, "instruments": 1, "modes": 1, "stations": 1, "targets": 2, "observations": 1,
          "pointing_goals": 0}),
    (52, {"satellites": 1, "instruments": 1, "modes": 2, "stations": 1, "targets": 2, "observations": 2,
          "pointing_goals": 1}),
    (53, {"satellites": 1, "instruments": 2, "modes": 2, "stations": 2, "targets": 3, "observations": 3,
          "pointing_goals": 0}),
    (54, {"satellites": 2, "instruments": 1, "modes": 2, "stations": 2, "targets": 3, "observations": 3,
          "pointing_goals": 1}),
    (55, {"satellites": 2, "instruments": 2, "modes": 3, "stations": 2, "targets": 4, "observations": 4,
          "pointing_goals": 1}),
    (56, {"satellites": 2, "instruments": 2, "modes": 3, "stations": 3, "targets": 5, "observations": 5,
          "pointing_goals": 2}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Task i of 32: from 2 satellites / 5 targets / 4 images up to 14 satellites / 140 targets / 180 images."""
    satellites = ramp(2, 14, i, power=1.3)
    return {
        "satellites": satellites,
        "instruments": 2 + i % 2,
        "modes": ramp(3, 6, i, power=1.3),
        "stations": ramp(2, 12, i, power=1.3),
        "targets": ramp(5, 140, i, power=1.3),
        "observations": ramp(4, 180, i, power=1.3),
        "pointing_goals": satellites // 2,
    }


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(6000, _eval_sizes)

MODE_KINDS = ("image", "spectrograph", "thermograph", "infrared")


def generate(seed: int, satellites: int = 2, instruments: int = 2, modes: int = 3, stations: int = 2,
             targets: int = 4, observations: int = 4, pointing_goals: int = 1) -> str:
    for label, value in (("satellites", satellites), ("instruments", instruments), ("modes", modes),
                         ("stations", stations), ("targets", targets)):
        if value < 1:
            raise ValueError(f"{label} must be >= 1")
    if not 1 <= observations <= targets * modes:
        raise ValueError(f"observations must be between 1 and targets * modes = {targets * modes}")
    if not 0 <= pointing_goals <= satellites:
        raise ValueError(f"pointing_goals must be between 0 and satellites = {satellites}")
    rng = random.Random(seed)
    sats = [f"satellite{k}" for k in range(satellites)]
    mode_names = [f"{MODE_KINDS[k % len(MODE_KINDS)]}{k}" for k in range(modes)]
    station_dirs = [f"{rng.choice(('groundstation', 'star'))}{k}" for k in range(stations)]
    target_dirs = [f"{rng.choice(('star', 'planet', 'phenomenon'))}{stations + k}" for k in range(targets)]
    directions = station_dirs + target_dirs

    mounted: list[tuple[str, str]] = []  # (instrument, satellite)
    for sat in sats:
        for _ in range(rng.randint(1, instruments)):
            mounted.append((f"instrument{len(mounted)}", sat))
    instrument_names = [inst for inst, _sat in mounted]
    supported = {inst: sorted(rng.sample(range(modes), rng.randint(1, min(3, modes)))) for inst in instrument_names}
    for mode in range(modes):  # every mode must be observable by some instrument
        if not any(mode in supported[inst] for inst in instrument_names):
            supported[rng.choice(instrument_names)].append(mode)
    calibration = {inst: rng.choice(station_dirs) for inst in instrument_names}
    pointing = {sat: rng.choice(directions) for sat in sats}

    wanted = rng.sample([(t, m) for t in range(targets) for m in range(modes)], observations)
    final_pointing = sorted(rng.sample(range(satellites), pointing_goals))

    init: list[str] = []
    for inst, sat in mounted:
        init += [f"(supports {inst} {mode_names[m]})" for m in sorted(supported[inst])]
        init.append(f"(calibration_target {inst} {calibration[inst]})")
        init.append(f"(on_board {inst} {sat})")
    for sat in sats:
        init += [f"(power_avail {sat})", f"(pointing {sat} {pointing[sat]})"]
    goal = [f"(pointing {sats[k]} {rng.choice(directions)})" for k in final_pointing]
    goal += [f"(have_image {target_dirs[t]} {mode_names[m]})" for t, m in wanted]

    objects = chunk_names(sats, 8, "satellite") + chunk_names(instrument_names, 8, "instrument")
    objects += chunk_names(mode_names, 8, "mode") + chunk_names(directions, 8, "direction")
    return problem_text(
        "satellite", f"satellite-{satellites}-{targets}-{observations}-s{seed}", seed,
        {"satellites": satellites, "instruments": instruments, "modes": modes, "stations": stations,
         "targets": targets, "observations": observations, "pointing_goals": pointing_goals},
        objects=objects, init=init, goal=goal,
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
