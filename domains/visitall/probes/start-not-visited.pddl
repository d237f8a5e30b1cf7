;; probe: the start cell is not marked visited and is part of the goal, so the robot must leave it and
;; come back (the generator always marks the start visited). A 1x3 corridor.
(define (problem visitall-probe-start-not-visited)
  (:domain visitall)
  (:objects loc-x0-y0 loc-x1-y0 loc-x2-y0 - place)
  (:init
    (at-robot loc-x1-y0)
    (connected loc-x0-y0 loc-x1-y0) (connected loc-x1-y0 loc-x0-y0)
    (connected loc-x1-y0 loc-x2-y0) (connected loc-x2-y0 loc-x1-y0))
  (:goal (and (visited loc-x0-y0) (visited loc-x1-y0) (visited loc-x2-y0))))
