;; Transport (IPC 2008 STRIPS version without action costs): trucks with limited capacity carry packages
;; over a road network. Capacity is counted with capacity-number objects ordered by capacity-predecessor.
(define (domain transport)
  (:requirements :strips :typing)
  (:types
    location locatable capacity-number - object
    vehicle package - locatable)

  (:predicates
    (road ?l1 - location ?l2 - location)                              ; one can drive from ?l1 to ?l2
    (at ?x - locatable ?v - location)                                 ; ?x is at ?v
    (in ?x - package ?v - vehicle)                                    ; ?x is loaded in ?v
    (capacity ?v - vehicle ?s1 - capacity-number)                     ; ?v has room for ?s1 more packages
    (capacity-predecessor ?s1 - capacity-number ?s2 - capacity-number)) ; ?s1 is one less than ?s2

  ;; Drive along a road.
  (:action drive
    :parameters (?v - vehicle ?l1 - location ?l2 - location)
    :precondition (and (at ?v ?l1) (road ?l1 ?l2))
    :effect (and (at ?v ?l2)
                 (not (at ?v ?l1))))

  ;; Load a package at the vehicle's location; the free capacity drops from ?s2 to ?s1.
  (:action pick-up
    :parameters (?v - vehicle ?l - location ?p - package ?s1 - capacity-number ?s2 - capacity-number)
    :precondition (and (at ?v ?l) (at ?p ?l)
                       (capacity-predecessor ?s1 ?s2) (capacity ?v ?s2))
    :effect (and (in ?p ?v)
                 (capacity ?v ?s1)
                 (not (at ?p ?l))
                 (not (capacity ?v ?s2))))

  ;; Unload a package at the vehicle's location; the free capacity rises from ?s1 to ?s2.
  (:action drop
    :parameters (?v - vehicle ?l - location ?p - package ?s1 - capacity-number ?s2 - capacity-number)
    :precondition (and (at ?v ?l) (in ?p ?v)
                       (capacity-predecessor ?s1 ?s2) (capacity ?v ?s1))
    :effect (and (at ?p ?l)
                 (capacity ?v ?s2)
                 (not (in ?p ?v))
                 (not (capacity ?v ?s1)))))
