(define (domain anonymized5)
  (:requirements :strips)
  (:predicates
    (predicate1 ?var1 ?var2)
    (predicate2 ?var3)
    (predicate3 ?var4)
    (predicate4 ?var4)
    (predicate5 ?var3 ?var4)
    (predicate6)
    (predicate7 ?var3)
  )
  (:action action1
    :parameters (?var5 ?var6)
    :precondition (and (predicate3 ?var5) (predicate3 ?var6) (predicate1 ?var5 ?var6) (predicate4 ?var5))
    :effect (and (predicate4 ?var6) (not (predicate4 ?var5))))
  (:action action2
    :parameters (?var7 ?var8)
    :precondition (and (predicate2 ?var7) (predicate3 ?var8) (predicate5 ?var7 ?var8) (predicate4 ?var8) (predicate6))
    :effect (and (predicate7 ?var7) (not (predicate5 ?var7 ?var8)) (not (predicate6))))
  (:action action3
    :parameters (?var7 ?var8)
    :precondition (and (predicate2 ?var7) (predicate3 ?var8) (predicate7 ?var7) (predicate4 ?var8))
    :effect (and (predicate5 ?var7 ?var8) (predicate6) (not (predicate7 ?var7))))
)
