;; probe: both grippers hold balls at the start and a third ball must be moved, so a held ball has to be
;; put down first.
(define (problem gripper-probe-both-grippers-full)
  (:domain gripper)
  (:objects room0 room1 ball0 ball1 ball2 gripper0 gripper1)
  (:init
    (room room0) (room room1)
    (ball ball0) (ball ball1) (ball ball2)
    (gripper gripper0) (gripper gripper1)
    (at-robby room1)
    (carry ball0 gripper0)
    (carry ball1 gripper1)
    (at ball2 room1))
  (:goal (and (at ball0 room1) (at ball1 room1) (at ball2 room0))))
