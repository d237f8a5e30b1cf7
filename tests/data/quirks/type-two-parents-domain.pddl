; A type listed under two parents that are not object: 'crate' is both a 'load' and a 'surface'. VAL and Fast
; Downward make it a subtype of both, so a crate is loaded and a crate is stacked upon.
(define (domain stacking)
  (:requirements :strips :typing)
  (:types load surface - object
          crate - load
          pallet - surface
          crate - surface)
  (:predicates (on ?x - load ?y - surface) (clear ?s - surface) (ready ?x - load))
  (:action prepare
    :parameters (?x - load)
    :precondition (and)
    :effect (ready ?x))
  (:action stack
    :parameters (?x - load ?y - surface)
    :precondition (and (clear ?y) (ready ?x))
    :effect (and (on ?x ?y) (not (clear ?y)) (not (ready ?x)))))
