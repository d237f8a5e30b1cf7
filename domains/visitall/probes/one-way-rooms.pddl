;; probe: not a grid: rooms with free names joined by one-way connections in a ring, so the robot can
;; only go round one way.
(define (problem visitall-probe-one-way-rooms)
  (:domain visitall)
  (:objects hall kitchen cellar attic - place)
  (:init
    (at-robot hall)
    (visited hall)
    (connected hall attic)
    (connected attic cellar)
    (connected cellar kitchen)
    (connected kitchen hall))
  (:goal (and (visited kitchen) (visited attic))))
