; Predicates without arguments, an action without parameters, negative preconditions and a negative goal.
(define (domain lamp)
  (:requirements :strips :negative-preconditions)
  (:predicates (power) (lit ?l) (broken ?l))
  (:action switch-power
    :parameters ()
    :precondition (not (power))
    :effect (power))
  (:action light
    :parameters (?l)
    :precondition (and (power) (not (lit ?l)) (not (broken ?l)))
    :effect (lit ?l))
  (:action cut-power
    :parameters ()
    :precondition (power)
    :effect (not (power))))
