; Constants (typed, used in actions and problems), (either ...) types and '=' equality.
(define (domain depot-lite)
  (:requirements :strips :typing :equality :negative-preconditions)
  (:types place crate hoist truck)
  (:constants depot - place main-hoist - hoist)
  (:predicates (at ?x - (either crate truck hoist) ?p - place)
               (lifting ?h - hoist ?c - crate)
               (available ?h - hoist))
  (:action drive
    :parameters (?t - truck ?from ?to - place)
    :precondition (and (at ?t ?from) (not (= ?from ?to)))
    :effect (and (not (at ?t ?from)) (at ?t ?to)))
  (:action lift
    :parameters (?c - crate)
    :precondition (and (at ?c depot) (available main-hoist))
    :effect (and (lifting main-hoist ?c) (not (at ?c depot)) (not (available main-hoist))))
  (:action put
    :parameters (?x - (either crate) ?t - truck)
    :precondition (and (lifting main-hoist ?x) (at ?t depot))
    :effect (and (available main-hoist) (not (lifting main-hoist ?x)) (at ?x depot))))
