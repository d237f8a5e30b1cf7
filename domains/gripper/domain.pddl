;; Gripper: a robot with several grippers carries balls between rooms.
;; Untyped, as the classic version: (room ?r), (ball ?b) and (gripper ?g) say what an object is.
(define (domain gripper)
  (:requirements :strips)
  (:predicates
    (room ?r)
    (ball ?b)
    (gripper ?g)
    (at-robby ?r)
    (at ?b ?r)
    (free ?g)
    (carry ?o ?g))

  ;; The robot walks from one room to another.
  (:action move
    :parameters (?from ?to)
    :precondition (and (room ?from) (room ?to) (at-robby ?from))
    :effect (and (not (at-robby ?from)) (at-robby ?to)))

  ;; A free gripper picks up a ball lying in the robot's room.
  (:action pick
    :parameters (?obj ?room ?gripper)
    :precondition (and (ball ?obj) (room ?room) (gripper ?gripper)
                       (at ?obj ?room) (at-robby ?room) (free ?gripper))
    :effect (and (not (at ?obj ?room)) (not (free ?gripper)) (carry ?obj ?gripper)))

  ;; A gripper puts the ball it holds down in the robot's room.
  (:action drop
    :parameters (?obj ?room ?gripper)
    :precondition (and (ball ?obj) (room ?room) (gripper ?gripper)
                       (carry ?obj ?gripper) (at-robby ?room))
    :effect (and (not (carry ?obj ?gripper)) (at ?obj ?room) (free ?gripper))))
