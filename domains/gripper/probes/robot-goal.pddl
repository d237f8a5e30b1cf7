;; probe: the goal also says where the robot must end up (the generator's goals only place balls).
(define (problem gripper-probe-robot-goal)
  (:domain gripper)
  (:objects room0 room1 room2 ball0 ball1 gripper0 gripper1)
  (:init
    (room room0) (room room1) (room room2)
    (ball ball0) (ball ball1)
    (gripper gripper0) (gripper gripper1)
    (at-robby room0)
    (free gripper0) (free gripper1)
    (at ball0 room0)
    (at ball1 room1))
  (:goal (and (at ball0 room1) (at ball1 room1) (at-robby room2))))
