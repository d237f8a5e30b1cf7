;; probe: the gold lies on a clear cell (no soft rock over it), so no bomb is needed; firing the laser at
;; it would destroy it.
(define (problem goldminer-probe-gold-on-clear-cell)
  (:domain goldminer)
  (:objects
    f0-0f f0-1f f0-2f f0-3f - loc)
  (:init
    (arm-empty)
    (connected f0-0f f0-1f) (connected f0-1f f0-0f) (connected f0-1f f0-2f) (connected f0-2f f0-1f)
    (connected f0-2f f0-3f) (connected f0-3f f0-2f)
    (clear f0-0f) (clear f0-3f)
    (hard-rock-at f0-1f) (soft-rock-at f0-2f)
    (gold-at f0-3f)
    (laser-at f0-0f) (bomb-at f0-0f)
    (robot-at f0-0f))
  (:goal (holds-gold)))
