(define (domain anonymized6)
  (:requirements :strips :typing)
  (:types type3 - type2 type4 - type2 type5 - type2 type1 - object type2 - object)
  (:predicates
    (predicate1 ?var1 - type2 ?var2 - type1)
    (predicate2 ?var1 - type3 ?var3 - type5)
    (predicate3 ?var3 - type5)
    (predicate4 ?var4 - type1 ?var5 - type1)
    (predicate5 ?var6 - type4)
    (predicate6 ?var6 - type4)
  )
  (:action action1
    :parameters (?var7 - type1 ?var8 - type1 ?var1 - type3)
    :precondition (and (predicate1 ?var1 ?var7) (predicate4 ?var7 ?var8))
    :effect (and (predicate1 ?var1 ?var8) (not (predicate1 ?var1 ?var7))))
  (:action action2
    :parameters (?var2 - type1 ?var3 - type5 ?var1 - type3)
    :precondition (and (predicate1 ?var1 ?var2) (predicate1 ?var3 ?var2))
    :effect (and (predicate2 ?var1 ?var3) (not (predicate1 ?var3 ?var2))))
  (:action action3
    :parameters (?var2 - type1 ?var3 - type5 ?var1 - type3 ?var6 - type4)
    :precondition (and (predicate1 ?var1 ?var2) (predicate1 ?var6 ?var2) (predicate2 ?var1 ?var3) (predicate3 ?var3) (predicate6 ?var6))
    :effect (and (predicate5 ?var6) (not (predicate6 ?var6)) (not (predicate3 ?var3))))
)
