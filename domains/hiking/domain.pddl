;; Hiking on a grid: follow the marked trail from the start to the target. Water is a trap (nobody walks
;; away from a water cell) and hills can only be entered by climbing.
(define (domain hiking)
  (:requirements :strips :typing :negative-preconditions)
  (:types loc)

  (:predicates
    (at ?loc - loc)                      ; the hiker is at ?loc
    (isWater ?loc - loc)                 ; ?loc is water
    (isHill ?loc - loc)                  ; ?loc is a hill
    (adjacent ?loc1 - loc ?loc2 - loc)   ; ?loc2 is a grid neighbour of ?loc1
    (onTrail ?from - loc ?to - loc))     ; the trail leads from ?from to ?to

  ;; Step onto a neighbouring cell that is not a hill.
  (:action walk
    :parameters (?from - loc ?to - loc)
    :precondition (and (at ?from) (adjacent ?from ?to)
                       (not (isHill ?to)) (not (isWater ?from)))
    :effect (and (at ?to)
                 (not (at ?from))))

  ;; Step onto a neighbouring hill.
  (:action climb
    :parameters (?from - loc ?to - loc)
    :precondition (and (at ?from) (adjacent ?from ?to)
                       (isHill ?to) (not (isWater ?from)))
    :effect (and (at ?to)
                 (not (at ?from)))))
