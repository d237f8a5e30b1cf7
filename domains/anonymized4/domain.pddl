(define (domain anonymized4)
  (:requirements :strips :typing)
  (:types type1 - object type2 - object)
  (:predicates
    (predicate1 ?var1 - type1 ?var2 - type2)
    (predicate2 ?var1 - type1 ?var2 - type2)
    (predicate3 ?var3 - type2 ?var4 - type2)
    (predicate4 ?var1 - type1)
    (predicate5 ?var1 - type1)
    (predicate6 ?var2 - type2)
  )
  (:action action1
    :parameters (?var5 - type2 ?var6 - type1)
    :precondition (and (predicate6 ?var5) (predicate1 ?var6 ?var5))
    :effect (and (predicate4 ?var6)))
  (:action action2
    :parameters (?var5 - type2 ?var6 - type1)
    :precondition (and (predicate6 ?var5) (predicate2 ?var6 ?var5) (predicate4 ?var6))
    :effect (and (predicate5 ?var6) (not (predicate4 ?var6))))
  (:action action3
    :parameters (?var7 - type2 ?var8 - type2)
    :precondition (and (predicate6 ?var7) (predicate3 ?var7 ?var8))
    :effect (and (predicate6 ?var8) (not (predicate6 ?var7))))
  (:action action4
    :parameters (?var7 - type2 ?var8 - type2)
    :precondition (and (predicate6 ?var7) (predicate3 ?var8 ?var7))
    :effect (and (predicate6 ?var8) (not (predicate6 ?var7))))
)
