; The IPC gripper's `object` among the :types, on a task without a plan: no robot reaches the third room.
(define (domain gripper-rooms)
  (:requirements :strips :typing)
  (:types room object robot gripper)
  (:predicates (at-robby ?r - robot ?x - room) (at ?o - object ?x - room) (door ?x ?y - room)
               (free ?r - robot ?g - gripper) (carry ?r - robot ?o - object ?g - gripper))
  (:action move
    :parameters (?r - robot ?from ?to - room)
    :precondition (and (at-robby ?r ?from) (door ?from ?to))
    :effect (and (at-robby ?r ?to) (not (at-robby ?r ?from))))
  (:action pick
    :parameters (?r - robot ?obj - object ?room - room ?g - gripper)
    :precondition (and (at ?obj ?room) (at-robby ?r ?room) (free ?r ?g))
    :effect (and (carry ?r ?obj ?g) (not (at ?obj ?room)) (not (free ?r ?g))))
  (:action drop
    :parameters (?r - robot ?obj - object ?room - room ?g - gripper)
    :precondition (and (carry ?r ?obj ?g) (at-robby ?r ?room))
    :effect (and (at ?obj ?room) (free ?r ?g) (not (carry ?r ?obj ?g)))))
