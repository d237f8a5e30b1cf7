;; probe: besides visiting every cell the robot has to end at a given cell (the generator's goals only
;; ask for visited cells).
(define (problem visitall-probe-robot-goal)
  (:domain visitall)
  (:objects
    loc-x0-y0 loc-x0-y1 - place
    loc-x1-y0 loc-x1-y1 - place)
  (:init
    (at-robot loc-x0-y0)
    (visited loc-x0-y0)
    (connected loc-x0-y0 loc-x0-y1) (connected loc-x0-y0 loc-x1-y0)
    (connected loc-x0-y1 loc-x0-y0) (connected loc-x0-y1 loc-x1-y1)
    (connected loc-x1-y0 loc-x0-y0) (connected loc-x1-y0 loc-x1-y1)
    (connected loc-x1-y1 loc-x0-y1) (connected loc-x1-y1 loc-x1-y0))
  (:goal (and (visited loc-x0-y0) (visited loc-x0-y1) (visited loc-x1-y0) (visited loc-x1-y1)
              (at-robot loc-x0-y1))))
