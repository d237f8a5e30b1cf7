; Depot: a typed hierarchy with `object` parameters mixed with typed ones, in actions and quantifiers, written
; for the held-out ADL suite. Vehicles carry crates, anything can be tagged and must then be labelled, and
; a drive's precondition is a disjunction over roads. Every atom is type-correct (VAL refuses the domain
; otherwise, while genplan and Fast Downward read an ill-typed atom as false).
(define (domain depot)
  (:requirements :adl :typing)
  (:types vehicle crate place - object truck van - vehicle)
  (:predicates (at ?o - object ?p - place) (carries ?v - vehicle ?c - crate) (road ?a ?b - place)
               (lane ?a ?b - place) (small ?v - vehicle) (tagged ?o - object) (labelled ?o - object)
               (printer ?p - place))
  (:action drive
    :parameters (?v - vehicle ?from ?to - place)
    :precondition (and (at ?v ?from)
                       (or (road ?from ?to) (and (lane ?from ?to) (small ?v))))
    :effect (and (not (at ?v ?from)) (at ?v ?to)
                 (forall (?c - crate) (when (carries ?v ?c) (and (not (at ?c ?from)) (at ?c ?to))))))
  (:action load
    :parameters (?c - crate ?v - vehicle ?p - place)
    :precondition (and (at ?c ?p) (at ?v ?p)
                       (not (exists (?o - crate) (and (carries ?v ?o))))
                       (not (exists (?w - vehicle) (carries ?w ?c))))
    :effect (carries ?v ?c))
  (:action unload
    :parameters (?c - crate ?v - vehicle)
    :precondition (carries ?v ?c)
    :effect (not (carries ?v ?c)))
  (:action label
    :parameters (?o - object ?p - place)
    :precondition (and (printer ?p) (tagged ?o)
                       (or (at ?o ?p)
                           (exists (?v - vehicle ?c - crate ?x - object)
                             (and (= ?x ?v) (= ?c ?o) (at ?x ?p) (carries ?v ?c)))))
    :effect (labelled ?o)))
