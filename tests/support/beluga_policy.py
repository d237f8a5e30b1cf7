"""A hand-written reference policy for domains/beluga (a solvability proof for every generated task).

The factory asks for the lines' parts in turn (first part of each line, then the second, ...). Whenever the
part it will ask for next stands at a rack's factory end, the line asks for it and a factory truck delivers
it. Otherwise the next part leaves the Beluga and goes to the Beluga end of the rack whose Beluga-end part
is asked for latest before it (or to an empty rack), where it fits. The generator keeps only flight orders
for which this works; every step here is checked by the project's validator, not by this file.
"""

from __future__ import annotations

from genplan.engine.pddl import Problem


def _number(name: str) -> int:
    return int(name[1:])


def plan_beluga(problem: Problem) -> list[str]:
    facts = problem.init

    def rel(name: str) -> list[tuple[str, ...]]:
        return [fact[1:] for fact in facts if fact[0] == name]

    def mapping(name: str) -> dict[str, str]:
        return {fact[1]: fact[2] for fact in facts if fact[0] == name}

    typed = problem.objects
    beluga_truck = next(name for name, kind in typed if kind == "beluga-truck")
    fab_truck = next(name for name, kind in typed if kind == "fab-truck")
    lines = [name for name, kind in typed if kind == "production-line"]
    racks = [name for name, kind in typed if kind == "rack"]
    size = {part: _number(n) for part, n in rel("size")}
    capacity = max(_number(total) for _a, _b, total in rel("fit-n-sum"))

    after = mapping("next-to-unload")
    ((part,),) = rel("ready-to-unload")
    flight: list[str] = []
    while part != "nonep":
        flight.append(part)
        part = after[part]
    line_succ = mapping("p-line-succ")
    first = mapping("p-line-next")
    line_orders: list[list[str]] = []
    for line in lines:
        order, part = [], first[line]
        while part != "nonep":
            order.append(part)
            part = line_succ[part]
        line_orders.append(order)
    owner = {part: line for line, order in zip(lines, line_orders) for part in order}
    request: list[str] = []
    for position in range(max(len(order) for order in line_orders)):
        request += [order[position] for order in line_orders if position < len(order)]
    rank = {part: k for k, part in enumerate(request)}

    stored: dict[str, list[str]] = {rack: [] for rack in racks}  # factory end first
    level = {rack: 0 for rack in racks}
    plan: list[str] = []
    waiting = list(flight)
    for wanted in request:
        while not any(stored[r] and stored[r][0] == wanted for r in racks):
            if not waiting:
                raise ValueError(f"{wanted} is neither on the Beluga nor at a rack's factory end")
            part = waiting.pop(0)
            plan.append(f"(unload-from-beluga {part} {waiting[0] if waiting else 'nonep'} {beluga_truck})")
            choices = [r for r in racks if level[r] + size[part] <= capacity
                       and (not stored[r] or rank[stored[r][-1]] < rank[part])]
            if not choices:
                raise ValueError(f"no rack takes {part}")
            rack = max(choices, key=lambda r: (rank[stored[r][-1]] if stored[r] else -1, -racks.index(r)))
            if stored[rack]:
                plan.append(f"(put-on-rack-beluga {beluga_truck} {part} {rack} {stored[rack][-1]} "
                            f"n{size[part]:02d} n{level[rack]:02d} n{level[rack] + size[part]:02d})")
            else:
                plan.append(f"(put-on-rack-first-beluga {beluga_truck} {part} {rack} n{size[part]:02d})")
            stored[rack].append(part)
            level[rack] += size[part]
        rack = next(r for r in racks if stored[r] and stored[r][0] == wanted)
        plan.append(f"(set-next {owner[wanted]} {wanted} {line_succ[wanted]})")
        if len(stored[rack]) == 1:
            plan.append(f"(put-on-truck-fab-last {fab_truck} {rack} {wanted} n{size[wanted]:02d} "
                        f"n{level[rack]:02d} n00)")
        else:
            plan.append(f"(put-on-truck-fab {fab_truck} {rack} {wanted} {stored[rack][1]} n{size[wanted]:02d} "
                        f"n{level[rack]:02d} n{level[rack] - size[wanted]:02d})")
        plan.append(f"(to-fab {fab_truck} {wanted})")
        stored[rack].pop(0)
        level[rack] -= size[wanted]
    return plan
