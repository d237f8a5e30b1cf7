; A goal that holds in the initial state: the optimal plan is empty.
(define (domain idle)
  (:requirements :strips :typing)
  (:types cell)
  (:predicates (visited ?c - cell) (at ?c - cell) (adjacent ?a ?b - cell))
  (:action step
    :parameters (?a ?b - cell)
    :precondition (and (at ?a) (adjacent ?a ?b))
    :effect (and (at ?b) (visited ?b) (not (at ?a)))))
