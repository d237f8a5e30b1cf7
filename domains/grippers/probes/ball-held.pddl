;; probe: balls are already held at the start (the generator starts with all grippers free): robot0
;; holds one ball in each gripper, robot1 one.
(define (problem grippers-probe-ball-held)
  (:domain grippers)
  (:objects
    robot0 robot1 - robot
    lgripper0 rgripper0 lgripper1 rgripper1 - gripper
    room0 room1 room2 - room
    ball0 ball1 ball2 ball3 - ball)
  (:init
    (at-robby robot0 room0)
    (at-robby robot1 room2)
    (carry robot0 ball0 lgripper0)
    (carry robot0 ball1 rgripper0)
    (carry robot1 ball2 lgripper1)
    (free robot1 rgripper1)
    (at ball3 room0))
  (:goal (and (at ball0 room1) (at ball1 room0) (at ball2 room1) (at ball3 room2))))
