import CockpitCore
import CockpitIO
import CockpitProtocol

/// `glide` (reach as of the last lookup: up to 50 fields, or one named field) and `glide.mc` (the MacCready value in
/// flight: a recorded input, mutating: root or the control group).
extension GlideSettings {
    public static var requests: [RequestHandler] {
        [
            RequestHandler(RequestName.glide) { request, context in
                GlideRequest.parse(request.body).map { glide in
                    ControlAnswer(type: RequestName.glide, key: "glide",
                                  body: .object(context.snapshot.glideJSON(fields: glide.count, ident: glide.ident)))
                }
            },
            RequestHandler(RequestName.glideMacCready, mutating: true) { request, context in
                GlideMacCreadyRequest.parse(request.body).map { mc in
                    context.setGlideMacCready(metersPerSecond: mc.metersPerSecond)
                    let glide = context.engine.configuration.glide
                    let performance = glide.performance(for: context.engine.configuration.flightProfile.kind)
                    let speed = performance.polar?.macCreadySpeedMetersPerSecond(macCready: mc.metersPerSecond)
                    let message = "MacCready \(FixedText.format(mc.metersPerSecond, decimals: 1)) m/s"
                        + (speed.map { ": speed to fly \(FixedText.format(UnitConversions.knots(fromMetersPerSecond: $0), decimals: 0)) kt "
                                       + "(\(FixedText.format($0 * 3.6, decimals: 0)) km/h) in still air; reach stays at MacCready 0" }
                           ?? ": no polar (one glide point), no speed to fly for it")
                    return ControlAnswer(type: RequestName.glideMacCready, key: "result", body: .object([
                        "metersPerSecond": .number(mc.metersPerSecond),
                        "speedToFlyKnots": .number(speed.map(UnitConversions.knots(fromMetersPerSecond:)), decimals: 0),
                        "message": .string(message),
                    ]))
                }
            },
        ]
    }
}
