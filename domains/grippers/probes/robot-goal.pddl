;; probe: the goal also says where the robots must end up.
(define (problem grippers-probe-robot-goal)
  (:domain grippers)
  (:objects
    robot0 robot1 - robot
    lgripper0 rgripper0 lgripper1 rgripper1 - gripper
    room0 room1 - room
    ball0 - ball)
  (:init
    (at-robby robot0 room0)
    (at-robby robot1 room0)
    (free robot0 lgripper0) (free robot0 rgripper0)
    (free robot1 lgripper1) (free robot1 rgripper1)
    (at ball0 room0))
  (:goal (and (at ball0 room1) (at-robby robot0 room0) (at-robby robot1 room1))))
