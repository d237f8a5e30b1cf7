(define (domain anonymized3)
  (:requirements :strips)
  (:predicates
    (predicate1 ?var1)
    (predicate2 ?var2)
    (predicate3 ?var3)
    (predicate4 ?var1)
    (predicate5 ?var2 ?var1)
    (predicate6 ?var3)
    (predicate7 ?var4 ?var3)
  )
  (:action action1
    :parameters (?var5 ?var6)
    :precondition (and (predicate1 ?var5) (predicate1 ?var6) (predicate4 ?var5))
    :effect (and (predicate4 ?var6) (not (predicate4 ?var5))))
  (:action action2
    :parameters (?var7 ?var8 ?var9)
    :precondition (and (predicate2 ?var7) (predicate1 ?var8) (predicate3 ?var9) (predicate5 ?var7 ?var8) (predicate4 ?var8) (predicate6 ?var9))
    :effect (and (predicate7 ?var7 ?var9) (not (predicate5 ?var7 ?var8)) (not (predicate6 ?var9))))
  (:action action3
    :parameters (?var7 ?var8 ?var9)
    :precondition (and (predicate2 ?var7) (predicate1 ?var8) (predicate3 ?var9) (predicate7 ?var7 ?var9) (predicate4 ?var8))
    :effect (and (predicate5 ?var7 ?var8) (predicate6 ?var9) (not (predicate7 ?var7 ?var9))))
)
