(define (domain spanner-costumed)
  (:requirements :strips :typing)
  (:types baker - item cake - item bag - item stall - object item - object)
  (:predicates
    (stands-at ?b - item ?st - stall)
    (holds ?b - baker ?bag - bag)
    (full ?bag - bag)
    (lane ?st1 - stall ?st2 - stall)
    (decorated ?c - cake)
    (plain ?c - cake)
  )
  (:action stroll
    :parameters (?here - stall ?there - stall ?b - baker)
    :precondition (and (stands-at ?b ?here) (lane ?here ?there))
    :effect (and (stands-at ?b ?there) (not (stands-at ?b ?here))))
  (:action take_bag
    :parameters (?st - stall ?bag - bag ?b - baker)
    :precondition (and (stands-at ?b ?st) (stands-at ?bag ?st))
    :effect (and (holds ?b ?bag) (not (stands-at ?bag ?st))))
  (:action decorate_cake
    :parameters (?st - stall ?bag - bag ?b - baker ?c - cake)
    :precondition (and (stands-at ?b ?st) (stands-at ?c ?st) (holds ?b ?bag) (full ?bag) (plain ?c))
    :effect (and (decorated ?c) (not (plain ?c)) (not (full ?bag))))
)
