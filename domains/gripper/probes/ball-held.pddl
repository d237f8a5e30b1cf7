;; probe: a ball is already held by a gripper at the start (the generator starts with free grippers).
(define (problem gripper-probe-ball-held)
  (:domain gripper)
  (:objects room0 room1 room2 ball0 ball1 gripper0 gripper1)
  (:init
    (room room0) (room room1) (room room2)
    (ball ball0) (ball ball1)
    (gripper gripper0) (gripper gripper1)
    (at-robby room0)
    (carry ball0 gripper1)
    (free gripper0)
    (at ball1 room1))
  (:goal (and (at ball0 room2) (at ball1 room2))))
