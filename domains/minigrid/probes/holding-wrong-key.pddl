;; probe: the robot starts holding a key that fits no lock (no arm-empty); it must swap it for the right
;; key (pickup-and-loose) or put it down first.
(define (problem minigrid-probe-holding-wrong-key)
  (:domain minigrid)
  (:objects
    p0 p1 p2 p3 p4
    shape0 shape1
    key0 key1)
  (:init
    (place p0) (place p1) (place p2) (place p3) (place p4)
    (shape shape0) (shape shape1)
    (key key0) (key key1)
    (open p0) (open p1) (open p3) (open p4)
    (locked p2) (lock-shape p2 shape0)
    (conn p0 p1) (conn p1 p0) (conn p1 p2) (conn p2 p1) (conn p2 p3) (conn p3 p2) (conn p3 p4) (conn p4 p3)
    (key-shape key0 shape0) (key-shape key1 shape1)
    (at key0 p0)
    (holding key1)
    (at-robot p1))
  (:goal (at-robot p4)))
