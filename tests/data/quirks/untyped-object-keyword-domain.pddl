; Parameters, predicates, constants and objects typed "- object" explicitly, mixed with other types.
(define (domain boxes)
  (:requirements :strips :typing)
  (:types box)
  (:constants floor - object)
  (:predicates (on ?x - object ?y - object) (clear ?x - object) (is-box ?b - box))
  (:action stack
    :parameters (?x - object ?b - box ?y - object)
    :precondition (and (clear ?x) (clear ?y) (on ?x floor) (is-box ?b))
    :effect (and (on ?x ?y) (not (clear ?y)) (not (on ?x floor)))))
