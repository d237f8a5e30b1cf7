;; probe: the rooms do not form a row. The door on the way to the goal needs a key that lies in a side
;; room behind a second locked door, whose key lies in the start room.
;;   p0 p1 | p2 (door, shape0) | p3 p4        start room p0 p1, goal room p3 p4
;;   p5 (door, shape1) below p1, side room p6 below p5
(define (problem minigrid-probe-key-in-side-room)
  (:domain minigrid)
  (:objects
    p0 p1 p2 p3 p4 p5 p6
    shape0 shape1
    key0 key1)
  (:init
    (place p0) (place p1) (place p2) (place p3) (place p4) (place p5) (place p6)
    (shape shape0) (shape shape1)
    (key key0) (key key1)
    (open p0) (open p1) (open p3) (open p4) (open p6)
    (locked p2) (lock-shape p2 shape0)
    (locked p5) (lock-shape p5 shape1)
    (conn p0 p1) (conn p1 p0) (conn p1 p2) (conn p2 p1) (conn p2 p3) (conn p3 p2) (conn p3 p4) (conn p4 p3)
    (conn p1 p5) (conn p5 p1) (conn p5 p6) (conn p6 p5)
    (key-shape key0 shape0) (key-shape key1 shape1)
    (at key0 p6)
    (at key1 p0)
    (arm-empty)
    (at-robot p1))
  (:goal (at-robot p4)))
