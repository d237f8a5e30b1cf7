;; Spanner: a man walks along a one-way path, collects spanners and tightens the loose nuts at the gate.
;; Every spanner can tighten only one nut. (IPC 2011 learning track names and arities.)
(define (domain spanner)
  (:requirements :strips :typing)
  (:types
    location locatable - object
    man nut spanner - locatable)
  (:predicates
    (at ?m - locatable ?l - location)
    (carrying ?m - man ?s - spanner)
    (useable ?s - spanner)
    (link ?l1 - location ?l2 - location)
    (tightened ?n - nut)
    (loose ?n - nut))

  ;; The man walks along a link (links are one-way).
  (:action walk
    :parameters (?start - location ?end - location ?m - man)
    :precondition (and (at ?m ?start) (link ?start ?end))
    :effect (and (not (at ?m ?start)) (at ?m ?end)))

  ;; The man picks up a spanner lying where he is.
  (:action pickup_spanner
    :parameters (?l - location ?s - spanner ?m - man)
    :precondition (and (at ?m ?l) (at ?s ?l))
    :effect (and (not (at ?s ?l)) (carrying ?m ?s)))

  ;; The man tightens a loose nut where he is with a carried, useable spanner, which then breaks.
  (:action tighten_nut
    :parameters (?l - location ?s - spanner ?m - man ?n - nut)
    :precondition (and (at ?m ?l) (at ?n ?l) (carrying ?m ?s) (useable ?s) (loose ?n))
    :effect (and (not (loose ?n)) (not (useable ?s)) (tightened ?n))))
