(define (domain anonymized2)
  (:requirements :strips :typing :negative-preconditions)
  (:types type1 - object)
  (:predicates
    (predicate1 ?var1 - type1)
    (predicate2 ?var1 - type1)
    (predicate3 ?var1 - type1)
    (predicate4 ?var2 - type1 ?var3 - type1)
    (predicate5 ?var4 - type1 ?var5 - type1)
  )
  (:action action1
    :parameters (?var4 - type1 ?var5 - type1)
    :precondition (and (predicate1 ?var4) (predicate4 ?var4 ?var5) (not (predicate3 ?var5)) (not (predicate2 ?var4)))
    :effect (and (predicate1 ?var5) (not (predicate1 ?var4))))
  (:action action2
    :parameters (?var4 - type1 ?var5 - type1)
    :precondition (and (predicate1 ?var4) (predicate4 ?var4 ?var5) (predicate3 ?var5) (not (predicate2 ?var4)))
    :effect (and (predicate1 ?var5) (not (predicate1 ?var4))))
)
