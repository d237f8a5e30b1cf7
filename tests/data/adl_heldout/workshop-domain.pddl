; Workshop: a Schedule-like domain written for the held-out ADL suite. Machines work on parts and tools
; (either types over sibling types), conditional effects strip old surface and colour, a tick frees every
; machine (universal effects), goals mix atoms, negated existentials and universals over `object`.
(define (domain workshop)
  (:requirements :adl :typing)
  (:types part tool - item
          item machine colour - object)
  (:constants lathe - machine red - colour)
  (:predicates (rough ?x - item) (smooth ?x - item) (polished ?x - item)
               (painted ?x - item ?c - colour) (has-paint ?m - machine ?c - colour)
               (busy ?m - machine) (scheduled ?x - item) (hot ?x - (either part tool))
               (sprayer ?m - machine) (polisher ?m - machine) (inspected ?o - object))
  (:action turn
    :parameters (?x - (either part tool))
    :precondition (and (not (busy lathe)) (not (scheduled ?x)))
    :effect (and (busy lathe) (scheduled ?x) (hot ?x)
                 (when (rough ?x) (and (not (rough ?x)) (smooth ?x)))
                 (when (polished ?x) (not (polished ?x)))
                 (forall (?c - colour) (when (painted ?x ?c) (not (painted ?x ?c))))))
  (:action polish
    :parameters (?x - item ?m - machine)
    :precondition (and (polisher ?m) (not (busy ?m)) (not (scheduled ?x)) (smooth ?x))
    :effect (and (busy ?m) (scheduled ?x) (polished ?x)))
  (:action spray
    :parameters (?x - part ?m - machine ?c - colour)
    :precondition (and (sprayer ?m) (has-paint ?m ?c) (not (busy ?m)) (not (scheduled ?x)) (not (hot ?x))
                       (forall (?d - colour) (not (painted ?x ?d))))
    :effect (and (busy ?m) (scheduled ?x) (painted ?x ?c)
                 (when (= ?c red) (not (polished ?x)))))
  (:action cool
    :parameters (?x - (either part tool))
    :precondition (hot ?x)
    :effect (not (hot ?x)))
  (:action inspect
    :parameters (?o - object)
    :precondition (and (not (inspected ?o))
                       (forall (?m - machine) (not (busy ?m)))
                       (not (exists (?x - (either part tool)) (and (= ?x ?o) (hot ?x)))))
    :effect (inspected ?o))
  (:action tick
    :parameters ()
    :precondition (exists (?m - machine) (busy ?m))
    :effect (and (forall (?m - machine) (not (busy ?m)))
                 (forall (?x - item) (not (scheduled ?x))))))
