;; probe: the goal is not where the robot stands but where a key lies (the IPC grid goal form), and the
;; robot must also end on a given cell.
(define (problem minigrid-probe-carry-key-to-goal)
  (:domain minigrid)
  (:objects
    p0 p1 p2 p3
    shape0
    key0)
  (:init
    (place p0) (place p1) (place p2) (place p3)
    (shape shape0)
    (key key0)
    (open p0) (open p1) (open p2) (open p3)
    (conn p0 p1) (conn p1 p0) (conn p1 p2) (conn p2 p1) (conn p2 p3) (conn p3 p2)
    (key-shape key0 shape0)
    (at key0 p0)
    (arm-empty)
    (at-robot p1))
  (:goal (and (at key0 p3) (at-robot p2))))
