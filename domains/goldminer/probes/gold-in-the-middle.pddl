;; probe: the gold lies in the middle of the mine, not in the last column, and the bombs lie in the last
;; column, not the first; the laser lies next to the robot.
(define (problem goldminer-probe-gold-in-the-middle)
  (:domain goldminer)
  (:objects
    f0-0f f0-1f f0-2f f1-0f f1-1f f1-2f f2-0f f2-1f f2-2f - loc)
  (:init
    (arm-empty)
    (connected f0-0f f0-1f) (connected f0-1f f0-0f) (connected f0-1f f0-2f) (connected f0-2f f0-1f)
    (connected f1-0f f1-1f) (connected f1-1f f1-0f) (connected f1-1f f1-2f) (connected f1-2f f1-1f)
    (connected f2-0f f2-1f) (connected f2-1f f2-0f) (connected f2-1f f2-2f) (connected f2-2f f2-1f)
    (connected f0-0f f1-0f) (connected f1-0f f0-0f) (connected f1-0f f2-0f) (connected f2-0f f1-0f)
    (connected f0-1f f1-1f) (connected f1-1f f0-1f) (connected f1-1f f2-1f) (connected f2-1f f1-1f)
    (connected f0-2f f1-2f) (connected f1-2f f0-2f) (connected f1-2f f2-2f) (connected f2-2f f1-2f)
    (clear f0-0f) (clear f1-0f) (clear f2-2f)
    (hard-rock-at f2-0f) (hard-rock-at f0-1f) (hard-rock-at f2-1f) (soft-rock-at f0-2f) (soft-rock-at f1-2f)
    (gold-at f1-1f) (soft-rock-at f1-1f)
    (laser-at f1-0f)
    (bomb-at f2-2f)
    (robot-at f0-0f))
  (:goal (holds-gold)))
