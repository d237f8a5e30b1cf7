;; probe: the robot starts holding the laser (no arm-empty, no laser-at), away from the first column.
(define (problem goldminer-probe-holding-laser)
  (:domain goldminer)
  (:objects
    f0-0f f0-1f f0-2f f1-0f f1-1f f1-2f - loc)
  (:init
    (connected f0-0f f0-1f) (connected f0-1f f0-0f) (connected f0-1f f0-2f) (connected f0-2f f0-1f)
    (connected f1-0f f1-1f) (connected f1-1f f1-0f) (connected f1-1f f1-2f) (connected f1-2f f1-1f)
    (connected f0-0f f1-0f) (connected f1-0f f0-0f) (connected f0-1f f1-1f) (connected f1-1f f0-1f)
    (connected f0-2f f1-2f) (connected f1-2f f0-2f)
    (clear f0-0f) (clear f1-0f) (clear f0-1f)
    (hard-rock-at f1-1f)
    (soft-rock-at f1-2f)
    (gold-at f0-2f) (soft-rock-at f0-2f)
    (bomb-at f1-0f)
    (robot-at f0-1f)
    (holds-laser))
  (:goal (holds-gold)))
