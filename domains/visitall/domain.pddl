;; Visit-all: a robot on a grid must visit a given set of cells (IPC 2011 "grid-visit-all", same actions
;; and predicates).
(define (domain visitall)
  (:requirements :strips :typing)
  (:types place)

  (:predicates
    (connected ?x - place ?y - place)   ; the robot can move from ?x to ?y
    (at-robot ?x - place)               ; the robot is at ?x
    (visited ?x - place))               ; the robot has been at ?x

  ;; Move to a connected cell and mark it visited.
  (:action move
    :parameters (?curpos - place ?nextpos - place)
    :precondition (and (at-robot ?curpos) (connected ?curpos ?nextpos))
    :effect (and (at-robot ?nextpos)
                 (visited ?nextpos)
                 (not (at-robot ?curpos)))))
