def generate_solution(objects, init, goal):
    ferry_at = next(fact[1] for fact in init if fact[0] == "at-ferry")
    car_at = {fact[1]: fact[2] for fact in init if fact[0] == "at"}
    plan = []
    for fact in sorted(goal):
        if fact[0] != "at":
            continue
        car, target = fact[1], fact[2]
        start = car_at[car]
        if start == target:
            continue
        plan.append(f"(board {car} {start})")
        plan.append(f"(sail {start} {target})")
        plan.append(f"(debark {car} {target})")
        ferry_at = target
    return plan