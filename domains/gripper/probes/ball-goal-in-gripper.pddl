;; probe: a ball has to end up in a particular gripper instead of in a room.
(define (problem gripper-probe-ball-goal-in-gripper)
  (:domain gripper)
  (:objects room0 room1 ball0 ball1 gripper0 gripper1)
  (:init
    (room room0) (room room1)
    (ball ball0) (ball ball1)
    (gripper gripper0) (gripper gripper1)
    (at-robby room0)
    (free gripper0) (free gripper1)
    (at ball0 room1)
    (at ball1 room0))
  (:goal (and (carry ball0 gripper1) (at ball1 room1))))
