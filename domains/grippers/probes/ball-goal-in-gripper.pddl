;; probe: a ball has to end up held by a particular robot and gripper; one robot has a single gripper.
(define (problem grippers-probe-ball-goal-in-gripper)
  (:domain grippers)
  (:objects
    robot0 robot1 - robot
    hand0 lgripper1 rgripper1 - gripper
    room0 room1 - room
    ball0 ball1 - ball)
  (:init
    (at-robby robot0 room0)
    (at-robby robot1 room1)
    (free robot0 hand0)
    (free robot1 lgripper1) (free robot1 rgripper1)
    (at ball0 room1)
    (at ball1 room1))
  (:goal (and (carry robot0 ball0 hand0) (at ball1 room0))))
