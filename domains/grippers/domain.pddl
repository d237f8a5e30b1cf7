;; Grippers: several robots, each with its own grippers, carry balls between rooms.
;; The classic version calls the type of the balls `object`; here it is `ball`, because `object` is the
;; root type of PDDL. Predicate and action names and arities are the classic ones.
(define (domain grippers)
  (:requirements :strips :typing)
  (:types room ball robot gripper)
  (:predicates
    (at-robby ?r - robot ?x - room)
    (at ?o - ball ?x - room)
    (free ?r - robot ?g - gripper)
    (carry ?r - robot ?o - ball ?g - gripper))

  ;; A robot walks from one room to another.
  (:action move
    :parameters (?r - robot ?from ?to - room)
    :precondition (at-robby ?r ?from)
    :effect (and (not (at-robby ?r ?from)) (at-robby ?r ?to)))

  ;; One of the robot's free grippers picks up a ball lying in the robot's room.
  (:action pick
    :parameters (?r - robot ?obj - ball ?room - room ?g - gripper)
    :precondition (and (at ?obj ?room) (at-robby ?r ?room) (free ?r ?g))
    :effect (and (not (at ?obj ?room)) (not (free ?r ?g)) (carry ?r ?obj ?g)))

  ;; The robot puts the ball held by one of its grippers down in its room.
  (:action drop
    :parameters (?r - robot ?obj - ball ?room - room ?g - gripper)
    :precondition (and (carry ?r ?obj ?g) (at-robby ?r ?room))
    :effect (and (not (carry ?r ?obj ?g)) (at ?obj ?room) (free ?r ?g))))
