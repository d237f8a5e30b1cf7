(define (domain hiking-costumed)
  (:requirements :strips :typing :negative-preconditions)
  (:types patch - object)
  (:predicates
    (boat-at ?patch - patch)
    (isreed ?patch - patch)
    (israpids ?patch - patch)
    (neighbour ?patch1 - patch ?patch2 - patch)
    (buoyed ?here - patch ?there - patch)
  )
  (:action row
    :parameters (?here - patch ?there - patch)
    :precondition (and (boat-at ?here) (neighbour ?here ?there) (not (israpids ?there)) (not (isreed ?here)))
    :effect (and (boat-at ?there) (not (boat-at ?here))))
  (:action shoot
    :parameters (?here - patch ?there - patch)
    :precondition (and (boat-at ?here) (neighbour ?here ?there) (israpids ?there) (not (isreed ?here)))
    :effect (and (boat-at ?there) (not (boat-at ?here))))
)
